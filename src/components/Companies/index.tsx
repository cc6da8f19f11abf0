/**
 * docs/discover/companies.mdx imports the logo wall from this path. The component lives in
 * src/features/promotions; once that page imports it from there, delete this file.
 */
export * from '@site/src/features/promotions/client/Companies';
