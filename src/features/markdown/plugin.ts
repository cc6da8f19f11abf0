/**
 * Fails the build when a docs page has no `description` in its front matter,
 * or shares it with another page: every page needs its own meta description.
 */
import type {Plugin} from '@docusaurus/types';

interface DocLike {
  readonly source: string;
  readonly frontMatter: {readonly description?: unknown};
}

/** Problems with the descriptions of `docs`, one line each (empty when all is well). */
export function descriptionProblems(docs: readonly DocLike[]): string[] {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const doc of docs) {
    const description = doc.frontMatter.description;
    if (typeof description !== 'string' || description.trim() === '') {
      problems.push(`${doc.source}: front matter has no "description"`);
      continue;
    }
    const first = seen.get(description);
    if (first) {
      problems.push(`${doc.source}: same "description" as ${first}`);
    } else {
      seen.set(description, doc.source);
    }
  }
  return problems;
}

export default function requireDescriptions(): Plugin {
  return {
    name: 'nest-require-descriptions',
    async allContentLoaded({allContent}) {
      const docsContent = allContent['docusaurus-plugin-content-docs']?.default as
        | {loadedVersions: {docs: DocLike[]}[]}
        | undefined;
      const docs = docsContent?.loadedVersions.flatMap((version) => version.docs) ?? [];
      const problems = descriptionProblems(docs);
      if (problems.length > 0) {
        throw new Error(
          `Every docs page needs its own meta description:\n- ${problems.join('\n- ')}`,
        );
      }
    },
  };
}
