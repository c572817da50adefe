import { type CredentialKind, HOW_TO_GET } from './credentials.js';
import { type ApiError, AuthenticationError, PermissionError, withFix } from './errors.js';

/**
 * The platform's refusal of a credential, said in terms of what to use instead (spec 1 §5): API keys
 * work on inference, usage and batch routes, management tokens on the management API only, a
 * session on the teams API and user settings. Other errors pass through unchanged.
 */
export function explainRefusal(
  error: unknown,
  need: { credential: CredentialKind; scope?: string },
): unknown {
  if (!(error instanceof AuthenticationError || error instanceof PermissionError)) return error;
  const fix = fixFor(error, need);
  return fix ? withFix(error, fix) : error;
}

function fixFor(error: ApiError, need: { credential: CredentialKind; scope?: string }): string | undefined {
  const scope = need.scope ? ` with the \`${need.scope}\` scope` : '';
  if (need.credential === 'management_token') {
    if (error instanceof PermissionError && error.upstreamCode === 'insufficient_scope') {
      return `The management token lacks the scope this needs, and tokens never gain scopes: create a new one${scope} in the platform account settings, then set ORBIT_MANAGEMENT_TOKEN (or \`orbit-mcp login --management-token\`).`;
    }
    if (error instanceof AuthenticationError) {
      return `The management API takes only a management token (never an API key); this one is missing, invalid, expired or revoked. Create one${scope} in the platform account settings, then set ORBIT_MANAGEMENT_TOKEN (or \`orbit-mcp login --management-token\`).`;
    }
    return undefined;
  }
  if (error instanceof PermissionError) return undefined;
  if (need.credential === 'session') {
    return `The teams API and user settings take a signed-in session, never an API key or management token, and this session is missing or has ended. ${HOW_TO_GET.session}`;
  }
  return 'These routes take an inference API key, never a management token (that works only on the management API): check ORBIT_API_KEY, or sign in again with auth_login.';
}
