import pkg from '../package.json' with { type: 'json' };

export const VERSION: string = pkg.version;
export const USER_AGENT = `${pkg.name}/${pkg.version} node/${process.versions.node}`;
