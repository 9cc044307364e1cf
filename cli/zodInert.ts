// The shim's stand-in for zod (aliased in scripts/build.mjs for dist/svc.js only).
// The shim sends requests by the method names of shared/protocol and never validates:
// the daemon validates every request. Loading real zod would cost the shim ~25 ms of
// start-up, a third of its budget. Schemas built here are inert; using one throws.
const inert: unknown = new Proxy(function inertSchema() {}, {
  get(_t, prop) {
    if (prop === 'parse' || prop === 'safeParse' || prop === 'parseAsync' || prop === 'safeParseAsync') {
      return () => {
        throw new Error('zod schemas are not available in the svc shim; validate in the daemon');
      };
    }
    if (prop === Symbol.toPrimitive) return () => 'inert-schema';
    return inert;
  },
  apply: () => inert,
  construct: () => inert as object,
});

export const z = inert;
export class ZodError extends Error {}
export default inert;
