/**
 * The ordered build pipeline's types and runner (see ../README.md): after `docusaurus build`
 * has written the pages, each step reads what the build holds, writes its own files next to
 * them and hands on what the later steps need. Steps run one after the other, in the order
 * ../plugin.ts lists them; nothing is shared between them but their arguments.
 *
 * Node-only.
 */
import type {LoadedContent} from '@docusaurus/plugin-content-docs';
import type {DocusaurusConfig, Plugin} from '@docusaurus/types';

/** What Docusaurus hands to `postBuild`. */
export type PostBuildProps = Parameters<NonNullable<Plugin['postBuild']>>[0];

/** The build, as every step sees it. */
export interface BuildData {
  /** The build directory (`build/`). */
  readonly outDir: string;
  readonly siteDir: string;
  readonly baseUrl: string;
  readonly siteConfig: DocusaurusConfig;
  /** Every route of the site, as Docusaurus lists them (`/`, `/controllers`, `/search`...). */
  readonly routesPaths: readonly string[];
  /** The docs plugin's loaded content: pages (source, route, title, front matter) and menus. */
  readonly docs: LoadedContent;
  /** Everything `postBuild` was given, for a step that runs a Docusaurus plugin's own. */
  readonly props: PostBuildProps;
}

/** A generated file, by its path under the site, and the `Content-Type` it is served with. */
export interface TypedFile {
  readonly path: string;
  readonly contentType: string;
}

/** An HTML document for the search index, at a URL (an API entry: src/features/api-reference). */
export interface SearchDocument {
  readonly url: string;
  readonly content: string;
}

/**
 * What the steps hand on to the ones after them. Every field is a list; each step's output is
 * appended to what the steps before it produced.
 */
export interface Artifacts {
  /** Files to serve with an explicit `Content-Type` (the Markdown twins, llms.txt). */
  readonly typedFiles: readonly TypedFile[];
  /**
   * Documents the search step indexes besides the built pages; one whose URL is a built page's
   * route is indexed instead of that page's HTML.
   */
  readonly searchDocuments: readonly SearchDocument[];
}

/** What one step adds (nothing, when it only writes files no later step needs to know about). */
export type StepOutput = Partial<Artifacts>;

/** One step: reads the build and what the steps before produced, writes files, returns its part. */
export type StepFunction = (build: BuildData, previous: Artifacts) => Promise<StepOutput>;

export interface Step {
  /** For the log and error messages (`markdown-twins`). */
  readonly name: string;
  readonly run: StepFunction;
}

export const noArtifacts: Artifacts = {typedFiles: [], searchDocuments: []};

/** `previous` with a step's output appended. */
export function merge(previous: Artifacts, output: StepOutput): Artifacts {
  return {
    typedFiles: [...previous.typedFiles, ...(output.typedFiles ?? [])],
    searchDocuments: [...previous.searchDocuments, ...(output.searchDocuments ?? [])],
  };
}

/**
 * Runs `steps` in order, each with the artifacts of those before it; returns them all. A failing
 * step stops the build, its error prefixed with the step's name.
 */
export async function runSteps(
  build: BuildData,
  steps: readonly Step[],
  log: (line: string) => void = console.log,
): Promise<Artifacts> {
  let artifacts = noArtifacts;
  const timings: string[] = [];
  for (const step of steps) {
    const started = performance.now();
    let output: StepOutput;
    try {
      output = await step.run(build, artifacts);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(`[build-pipeline] step "${step.name}" failed: ${message}`, {cause: error});
    }
    artifacts = merge(artifacts, output);
    timings.push(`${step.name} ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  log(`[build-pipeline] ${timings.join(', ')}`);
  return artifacts;
}
