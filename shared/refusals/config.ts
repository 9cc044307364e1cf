// The reasons the config files and `svc config` refuse with. Messages:
// server/config/configRefusals.ts.
export const CONFIG_REFUSALS = ['invalidConfig', 'unknownProject', 'unknownConfigKey', 'invalidConfigValue'] as const;
export type ConfigRefusal = (typeof CONFIG_REFUSALS)[number];
