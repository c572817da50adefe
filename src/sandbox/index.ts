export {
  createManagementToken,
  createSandboxPerson,
  describePeople,
  setPlan,
  type TokenSpec,
} from './accounts/control.js';
export {
  type PersonHandle,
  SANDBOX_INVITATIONS,
  SANDBOX_MANAGEMENT_TOKENS,
  SANDBOX_PEOPLE,
  SANDBOX_TEAMS,
  SESSION_COOKIE,
  type SubscriptionPlan,
  sessionCookie,
} from './accounts/fixtures.js';
export { SANDBOX_DEMO_BALANCE_USD, SANDBOX_DEMO_KEY, SANDBOX_KEY_PREFIX } from './constants.js';
export type { Envelope } from './errors.js';
export type { ActiveFault, FaultControl, FaultSpec, ListedFault } from './faults.js';
export type { ManagementScope, ManagementToken } from './management/tokens.js';
export { startSandbox } from './server.js';
export type { KeyOptions, KeyRecord, SandboxState } from './state.js';
export type { CorruptionPart, CorruptionSpec } from './tee/corruptions.js';
export type { EnclaveOptions, SandboxEnclave, SignedReply } from './tee/enclave.js';
export type { RecordedRequest, Sandbox, SandboxContext, SandboxOptions, SandboxTiming } from './types.js';
