// Font files imported by a component resolve to their URL in the build (Docusaurus' font loader).
declare module '*.woff2' {
  const src: string;
  export default src;
}
