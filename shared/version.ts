// Version and build id, injected by esbuild (scripts/build.mjs). The build id changes
// whenever any bundled source changes, so a client built from other sources replaces
// a running daemon instead of talking to one that speaks another protocol.
declare const __SVC_VERSION__: string | undefined;
declare const __SVC_BUILD__: string | undefined;

export const SVC_VERSION: string = typeof __SVC_VERSION__ === 'string' ? __SVC_VERSION__ : '0.0.0-dev';
export const SVC_BUILD: string = typeof __SVC_BUILD__ === 'string' ? __SVC_BUILD__ : 'dev';
