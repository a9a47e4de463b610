// esbuild loads .css files as text for the webview bundle (see esbuild.mjs).
declare module '*.css' {
  const text: string;
  export default text;
}
