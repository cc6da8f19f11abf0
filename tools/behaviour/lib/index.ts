export {claim} from './claim';
export {readPage, parseRef, repoRoot} from './pages';
export {samples, fragment, compileModule, applyEdits} from './samples';
export type {Edit, SampleOptions, SampleSet} from './samples';
export {service, freePort, findBinary} from './services';
export type {Service, ServiceName} from './services';
export {expectOutput, outputBlock} from './outputs';
export {nest, memoryLogger, listen} from './nest';
