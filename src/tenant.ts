/**
 * Whose jobs and files a connection sees: fixed (an HTTP caller's key, `local` for a process on
 * its own memory), or worked out at each use where it follows a key that sign-in may change.
 */
export type Tenant = string | (() => string);

export const tenantNow = (tenant: Tenant): string => (typeof tenant === 'string' ? tenant : tenant());
