/**
 * The code highlighter, in its own chunk: Prism (through prism-react-renderer), the
 * extra languages of `themeConfig.prism.additionalLanguages`, and Docusaurus' own
 * highlighted code block content. Loaded by src/features/code/client/CodeBlockContent.tsx when a block
 * must be highlighted in the browser (pages reached by client-side navigation), and by
 * the server when it renders every page.
 */
import {Prism} from 'prism-react-renderer';
import prismIncludeLanguages from '@theme/prism-include-languages';
import Content from '@theme-original/CodeBlock/Content';
import type ContentType from '@theme/CodeBlock/Content';

// Docusaurus registers the languages from a client module loaded on every page; that
// module is replaced by an empty one (src/features/code/plugin.ts) so Prism stays out of
// the main bundle, and the registration happens here instead, once.
prismIncludeLanguages(Prism);

export default Content as typeof ContentType;
