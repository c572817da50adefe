export {
  createManagementToken,
  createSandboxPerson,
} from './accounts/control.js';
export {
  SANDBOX_MANAGEMENT_TOKENS,
  SANDBOX_PEOPLE,
  SANDBOX_TEAMS,
  sessionCookie,
} from './accounts/fixtures.js';
export { SANDBOX_DEMO_KEY, SANDBOX_KEY_PREFIX } from './constants.js';

export type { FaultSpec } from './faults.js';

export { startSandbox } from './server.js';

export type { RecordedRequest, Sandbox, SandboxOptions } from './types.js';
