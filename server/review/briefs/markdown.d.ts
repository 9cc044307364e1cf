// Markdown files are bundled as text (esbuild `loader: {'.md': 'text'}` in scripts/build.mjs).
declare module '*.md' {
  const text: string;
  export default text;
}
