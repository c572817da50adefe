// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the keys quote source code, template placeholders included
/**
 * Every regular expression in the shipped code has a verdict (issue 34: nothing a client or the
 * platform sends costs more than linear time). `npx tsx scripts/regex-audit.ts` checks each literal
 * with recheck, a ReDoS checker (exponential and polynomial backtracking); what it cannot see (a
 * pattern built at run time) or flags is argued here by hand. A new regex fails this test until it
 * has a verdict, and a verdict whose regex is gone fails it too.
 *
 * - SAFE: recheck finds no backtracking that grows with the input: no nested or adjacent
 *   quantifiers that can split one stretch of input two ways (most are anchored, or a single
 *   character class or literal).
 * - fixed / bounded (test): once superlinear; the named test in test/unit/linear-time.test.ts gives
 *   it a 1 MB hostile input (bounded: the input reaching it is capped first, as said).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { regexSites } from '../../scripts/lib/regex-sites.js';

const SAFE = 'safe: recheck finds no superlinear backtracking';
const FIXED_OPERATOR =
  'fixed: linear now (recheck); reads only what the operator configures (flags, env), never a client';
const STARTS_ONCE_PER_RUN =
  'fixed: the lookbehind starts a match once per run of the repeated character, so a failing run is read once (recheck: linear)';
const fixed = (test: string) => `fixed: test/unit/linear-time.test.ts "${test}"`;
const bounded = (test: string, why: string) => `bounded: ${why}; test/unit/linear-time.test.ts "${test}"`;

/** `<file> <regex as written>` -> why it runs in linear time on what reaches it. */
const VERDICTS = new Map<string, string>([
  ['resources/skills.ts /^[a-z0-9]+(-[a-z0-9]+)*$/', SAFE],
  [
    'resources/skills.ts /^---\\n([\\s\\S]*?)\\n---\\n/',
    'safe: read only on the SKILL.md files this package ships, never on client input (recheck: linear)',
  ],
  ['resources/skills.ts /^([a-z-]+): (\\S.*)$/', SAFE],
  ['resources/skills.ts /^["\'|>]/', SAFE],
  ['src/auth/cli.ts /\\r?\\n/', SAFE],
  ['src/auth/loopback.ts /[&<>"\']/g', SAFE],
  ['src/auth/pkce.ts /^[A-Za-z0-9\\-._~]{43,128}$/', SAFE],
  ['src/auth/secret-file.ts /[^A-Za-z0-9.-]/g', SAFE],
  ['src/auth/secret-file.ts /^[A-Za-z0-9_.-]{1,100}$/', SAFE],
  [
    "src/auth/shortcut.ts new RegExp(`^x-[a-z0-9_-]+-oauth-shortcut-${suffix}$`, 'i')",
    "built: `^x-[a-z0-9_-]+-oauth-shortcut-<our literal>$` on the platform's key names; anchored at the start, one run then a literal: linear",
  ],
  ['src/config.ts /^https?:\\/\\//i', SAFE],
  ['src/config.ts /(?<!\\/)\\/+$/', FIXED_OPERATOR],
  ['src/config.ts /^[\\w.-]{1,64}$/', SAFE],
  [
    'src/config.ts /^(?:[A-Za-z0-9.-]+|\\[[0-9A-Fa-f:.]+\\])(?::\\d{1,5})?$/',
    'safe: recheck finds it linear; reads only what the operator configures (--allowed-hosts, ORBIT_ALLOWED_HOSTS), never a client',
  ],
  ['src/config.ts /^(\\d+(?:\\.\\d+)?)\\s*([mhd]?)$/', FIXED_OPERATOR],
  ['src/config.ts /[A-Z]/g', SAFE],
  [
    'src/config.ts /^(\\d+(?:\\.\\d+)?)\\s*\\/\\s*([a-z]+)(?:\\s*:\\s*(\\d+))?$/',
    'safe: recheck finds no superlinear backtracking; reads only --rate-limit (flags, env), never a client',
  ],
  ['src/files/file-uri.ts /^file:/i', SAFE],
  [
    'src/files/files.ts new RegExp(`^${URI_SCHEME}://media/([a-f0-9]{32})$`)',
    'built: `^orbit://media/([a-f0-9]{32})$`, anchored, fixed length: linear',
  ],
  ['src/files/input.ts /^data:([\\w.+/-]+)?(;[\\w=.-]+)*;base64,(.*)$/s', SAFE],
  ['src/files/input.ts /^https?:\\/\\//i', SAFE],
  ['src/heap.ts /semi[-_]space/', SAFE],
  ['src/heap.ts /heap[-_]growing[-_]percent/', SAFE],
  ['src/mcp/arguments.ts /^\\s*[[{]/', SAFE],
  [
    'src/mcp/define-resource.ts /\\{(\\w+)\\}/',
    'safe: applied to our own templates, never to a URI (the URI is scanned with indexOf)',
  ],
  ['src/mcp/http/endpoint/log.ts /^[a-z][a-z0-9_/]{0,63}$/i', SAFE],
  ['src/mcp/http/auth/request-credentials.ts /^Bearer\\s+(\\S+)$/i', SAFE],
  ['src/mcp/http/endpoint/request.ts /:(\\d+)$/', SAFE],
  ['src/mcp/standard-headers.ts /^=\\?base64\\?([A-Za-z0-9+/]*={0,2})\\?=$/', SAFE],
  ['src/mcp/stdio-transport.ts /\\r$/', SAFE],
  [
    'src/mcp/stdio-transport.ts new RegExp(`^\\\\s*\\\\{\\\\s*(?:"jsonrpc"\\\\s*:\\\\s*"2\\\\.0"\\\\s*,\\\\s*)?${ID}`)',
    'built: the JSON-RPC id pattern, on the first and last EDGE_BYTES of an oversized stdio line only (bounded), from the local person over stdio',
  ],
  [
    'src/mcp/stdio-transport.ts new RegExp(`${ID}\\\\s*\\\\}\\\\s*$`)',
    'built: the JSON-RPC id pattern, on the first and last EDGE_BYTES of an oversized stdio line only (bounded), from the local person over stdio',
  ],
  ['src/otel/route.ts /^https?:\\/\\/[^/]+/i', SAFE],
  ['src/otel/route.ts /^\\d+$/', SAFE],
  ['src/otel/route.ts /\\d/', SAFE],
  ['src/payments/challenge.ts /lightning/i', SAFE],
  ['src/replies/usable-list.ts /received undefined/', SAFE],
  ['src/sandbox/batches/query.ts /^-?\\d{1,15}$/', SAFE],
  [
    'src/sandbox/batches/query.ts /^(\\d{4})-(\\d{2})-(\\d{2})[Tt ](\\d{2}):(\\d{2}):(\\d{2})(?:\\.(\\d{1,3}))?(?:([Zz])|([+-])(\\d{2})(?::?(\\d{2}))?)$/',
    SAFE,
  ],
  ['src/sandbox/batches/query.ts /^\\d+$/', SAFE],
  ['src/sandbox/billing.ts /^Bearer\\s+(\\S+)\\s*$/i', SAFE],
  ['src/sandbox/data/contacts.ts /^([a-z0-9-]+\\.)+[a-z]{2,}$/', SAFE],
  ['src/sandbox/data/contacts.ts /[^a-z0-9]+/g', SAFE],
  ['src/sandbox/data/contacts.ts /^[^@\\s]+@([a-z0-9-]+\\.)+[a-z]{2,}$/', SAFE],
  ['src/sandbox/data/contacts.ts /[._-]/', SAFE],
  ['src/sandbox/data/direct.ts / received undefined$/', SAFE],
  ['src/sandbox/data/fake.ts /^www\\./', SAFE],
  ['src/sandbox/data/fake.ts /[-_]/', SAFE],
  ['src/sandbox/data/fake.ts /^@/', SAFE],
  ['src/sandbox/data/fake.ts /[^a-z0-9_.]+/g', SAFE],
  ['src/sandbox/data/ids.ts /^https?:\\/\\/[^/]+/', SAFE],
  ['src/sandbox/data/ids.ts /^\\/+/', SAFE],
  ['src/sandbox/data/ids.ts /^api\\/v1\\/data\\//', SAFE],
  [
    'src/sandbox/data/ids.ts /(?<!\\/)\\/+$/',
    fixed('normalizes a data endpoint id ending in a megabyte of slashes'),
  ],
  ['src/sandbox/data/ids.ts /\\//g', SAFE],
  ['src/sandbox/data/ids.ts /-/g', SAFE],
  ['src/sandbox/data/maps.ts /^\\w/', SAFE],
  ['src/sandbox/data/pages.ts /^\\[|\\]$/g', SAFE],
  ['src/sandbox/data/pages.ts /\\.(localhost|local|internal)$/', SAFE],
  ['src/sandbox/data/pages.ts /^(\\d+)\\.(\\d+)\\.\\d+\\.\\d+$/', SAFE],
  ['src/sandbox/data/pages.ts /^(fc|fd|fe8|fe9|fea|feb)/', SAFE],
  ['src/sandbox/data/pages.ts /(?<!\\/)\\/+$/', fixed("lists a page's links under a megabyte of slashes")],
  ['src/sandbox/data/pages.ts /\\/(404|missing|not-found)(\\/|$)/', SAFE],
  ['src/sandbox/data/scraping.ts /(?<!\\*)\\*+$/', STARTS_ONCE_PER_RUN],
  ['src/sandbox/embeddings/vectors.ts /[\\p{L}\\p{N}]+/gu', SAFE],
  ['src/sandbox/errors.ts /^[A-Z_]+$/', SAFE],
  ['src/sandbox/evals/datasets.ts /^evaldataset_[A-Za-z0-9_-]{6,80}$/', SAFE],
  ['src/sandbox/evals/experiment-create.ts /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/', SAFE],
  ['src/sandbox/evals/input.ts /\\{\\{\\s*([A-Za-z0-9_]+)\\s*\\}\\}/g', SAFE],
  ['src/sandbox/evals/judge.ts /\\bfail-judge\\b/i', SAFE],
  ['src/sandbox/evals/judge.ts /[\\p{L}\\p{N}]+/gu', SAFE],
  [
    'src/sandbox/evals/scorer-config.ts new RegExp(config.pattern, config.flags)',
    "built from a caller's scorer pattern, compiled only (never run here): compiling is linear in the pattern, at most 1,000 characters",
  ],
  ['src/sandbox/evals/scorer-config.ts /^(?!.*(.).*\\1)[imsu]*$/', SAFE],
  ['src/sandbox/evals/scorers.ts /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/', SAFE],
  ['src/sandbox/management/api-keys.ts /(Z|[+-]\\d{2}:\\d{2})$/i', SAFE],
  ['src/sandbox/management/auth.ts /^Bearer\\s+(\\S+)\\s*$/i', SAFE],
  ['src/sandbox/management/idempotency.ts /^[\\x21-\\x7e]{1,255}$/', SAFE],
  [
    'src/sandbox/media/files.ts new RegExp(`${MEDIA_PREFIX}/([a-f0-9]+)\\\\.`)',
    'built: `/media/tmp/([a-f0-9]+)\\.` on URLs the sandbox issued; one run then a literal, and a failing start is passed by the next: linear',
  ],
  ['src/sandbox/media/png.ts /^(\\d{2,4})x(\\d{2,4})$/', SAFE],
  ['src/sandbox/media/png.ts /^(\\d+):(\\d+)$/', SAFE],
  ['src/sandbox/media/policy.ts /\\bnsfw\\b/i', SAFE],
  ['src/sandbox/media/policy.ts /\\bfail-render\\b/i', SAFE],
  ['src/sandbox/middleware.ts /^(audio|image|video)\\/|application\\/octet-stream/', SAFE],
  ['src/sandbox/oauth/endpoints.ts /^Bearer\\s+(\\S+)\\s*$/i', SAFE],
  ['src/sandbox/oauth/endpoints.ts /^\\d+$/', SAFE],
  ['src/sandbox/oauth/pages.ts /[&<>"\']/g', SAFE],
  ['src/sandbox/oauth/rules.ts /^[a-z]+:\\/\\/[^/?]*@/i', SAFE],
  ['src/sandbox/oauth/rules.ts /^http:\\/\\/(?:\\[[^\\]]*\\]|[^/:?]*):(\\d{1,5})(?:[/?]|$)/i', SAFE],
  ['src/sandbox/oauth/rules.ts /^[A-Za-z0-9\\-._~]{43,128}$/', SAFE],
  ['src/sandbox/oauth/rules.ts /^[A-Za-z0-9_-]{43}$/', SAFE],
  ['src/sandbox/oauth/rules.ts /[\\s+]+/', SAFE],
  ['src/sandbox/routes/accounts.ts /^[a-z0-9_-]{1,32}$/', SAFE],
  ['src/sandbox/routes/chat-format.ts /^chatcmpl-/', SAFE],
  ['src/sandbox/routes/data-direct.ts /^\\/+/', SAFE],
  ['src/sandbox/routes/images.ts /^https?:\\/\\//', SAFE],
  ['src/sandbox/routes/images.ts /^data:image\\/(png|jpeg|webp);base64,/', SAFE],
  ['src/sandbox/routes/images.ts /^data:[^;,]+;base64,(.*)$/s', SAFE],
  ['src/sandbox/routes/messages-format.ts /^msg_/', SAFE],
  ['src/sandbox/routes/responses-format.ts /^resp_/', SAFE],
  ['src/sandbox/routes/team-invitations.ts /^\\d+$/', SAFE],
  ['src/sandbox/routes/tee.ts /^0x/i', SAFE],
  ['src/sandbox/routes/tee.ts /^[0-9a-fA-F]{64}$/', SAFE],
  ['src/sandbox/routes/transcribe.ts /^corrupt/i', SAFE],
  ['src/sandbox/routes/transcribe.ts /^https?:\\/\\//', SAFE],
  [
    'src/sandbox/routes/transcribe.ts /^https?:\\/\\/(www\\.|m\\.)?(youtube\\.com\\/(watch\\?v=|shorts\\/|embed\\/|live\\/)|youtu\\.be\\/)([\\w-]{6,})/',
    SAFE,
  ],
  ['src/sandbox/routes/transcribe.ts /private|unavailable/i', SAFE],
  ['src/sandbox/routes/transcriptions.ts /^https?:\\/\\//', SAFE],
  ['src/sandbox/routes/user-settings.ts /^\\d+$/', SAFE],
  ['src/sandbox/routes/video.ts /s$/', SAFE],
  ['src/sandbox/search.ts /[^a-z0-9]+/g', SAFE],
  ['src/sandbox/search.ts /^-+|(?<!-)-+$/g', STARTS_ONCE_PER_RUN],
  ['src/sandbox/search.ts /^https?:\\/\\//', SAFE],
  ['src/sandbox/teams/access.ts /^[\\p{L}\\p{N} _-]+$/u', SAFE],
  [
    'src/sandbox/teams/access.ts /^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$/',
    bounded(
      'refuses a megabyte e-mail address in the sandbox',
      'after `.max(254, { abort: true })`: it reads at most 254 characters',
    ),
  ],
  ['src/sandbox/teams/access.ts /^\\d+$/', SAFE],
  ['src/sandbox/teams/model.ts /^\\d+$/', SAFE],
  ['src/sandbox/tee/capture.ts /"(content|text|delta)":"(?=[^"])/', SAFE],
  ['src/sandbox/tee/certificates.ts /.{1,64}/g', SAFE],
  ['src/sandbox/text/generate.ts /\\s+/g', SAFE],
  ['src/sandbox/text/tokens.ts /\\S+\\s*|\\s+/g', SAFE],
  ['src/sandbox/text/tool-args.ts /^(true|yes|on|1)$/i', SAFE],
  [
    "src/sandbox/text/tool-args.ts new RegExp(`(^|[^\\\\w])${escapeRegExp(word)}($|[^\\\\w])`, 'i')",
    bounded(
      'fills tool arguments from a megabyte prompt of open quotes',
      'the emulated model reads at most 2,000 characters of the prompt and 64 properties',
    ),
  ],
  [
    "src/sandbox/text/tool-args.ts new RegExp( `(?:^|[^\\\\w])${escapeRegExp(name)}\\\\s*(?:=|:|\\\\bis\\\\b)\\\\s*(?:\"([^\"]*)\"|'([^']*)'|(.+?))(?=\\\\s*(?:[,;!?\\\\n]|\\\\.(?:\\\\s|$)|\\\\s\\\\band\\\\b|$))`, 'i', )",
    bounded(
      'fills tool arguments from a megabyte prompt of open quotes',
      'the emulated model reads at most 2,000 characters of the prompt and 64 properties',
    ),
  ],
  [
    'src/sandbox/text/tool-args.ts /"([^"]+)"|(?<!\\w)\'([^\']+)\'(?!\\w)|“([^”]+)”/g',
    bounded(
      'fills tool arguments from a megabyte prompt of open quotes',
      'planToolCalls hands it at most 2,000 characters of the prompt',
    ),
  ],
  [
    "src/sandbox/text/tool-args.ts new RegExp(`\\\\b(?:${PREPOSITIONS})\\\\s+([A-Z][\\\\w'’-]*(?:\\\\s+[A-Z][\\\\w'’-]*)*)`, 'g')",
    bounded(
      'fills tool arguments from a megabyte prompt of open quotes',
      'the emulated model reads at most 2,000 characters of the prompt and 64 properties',
    ),
  ],
  [
    "src/sandbox/text/tool-args.ts new RegExp( `\\\\b(?:${PREPOSITIONS})\\\\s+(?:(?:the|a|an)\\\\s+)?([^,;.!?\\\\n]+?)(?=\\\\s+(?:${PREPOSITIONS}|and|then|please)\\\\b|[,;.!?\\\\n]|$)`, 'gi', )",
    bounded(
      'fills tool arguments from a megabyte prompt of open quotes',
      'the emulated model reads at most 2,000 characters of the prompt and 64 properties',
    ),
  ],
  ["src/sandbox/text/tool-args.ts /\\b[A-Z][\\w'’-]*(?:\\s+[A-Z][\\w'’-]*)*/g", SAFE],
  ['src/sandbox/text/tool-args.ts /(^|[.!?])\\s*$/', SAFE],
  ['src/sandbox/text/tool-args.ts /(?<![\\w.])-?\\d+(?:\\.\\d+)?(?![\\w.])/g', SAFE],
  ['src/sandbox/text/tool-args.ts /\\s+/g', SAFE],
  ['src/sandbox/text/tool-input.ts /^[a-zA-Z0-9_-]{1,64}$/', SAFE],
  ['src/sandbox/text/tools.ts /[_-]+/g', SAFE],
  [
    'src/sandbox/text/tools.ts new RegExp(`(^|[^\\\\w])${escapeRegExp(form)}($|[^\\\\w])`)',
    bounded(
      'fills tool arguments from a megabyte prompt of open quotes',
      'escaped tool names over at most 2,000 characters of the prompt and 128 tools',
    ),
  ],
  [
    "src/sandbox/text/tools.ts new RegExp(escapeRegExp(tool.name), 'gi')",
    bounded(
      'fills tool arguments from a megabyte prompt of open quotes',
      'escaped tool names over at most 2,000 characters of the prompt and 128 tools',
    ),
  ],
  ['src/sandbox/util.ts /[.*+?^${}()|[\\]\\\\]/g', SAFE],
  ['src/sandbox/x402.ts /^(?:L402|LSAT)\\s+([^:\\s]+):(\\S+)\\s*$/i', SAFE],
  ['src/sandbox/x402.ts /^[0-9a-f]{64}$/i', SAFE],
  ['src/secrets.ts /\\b(?:sk|ok|mt|pk|rk)-[A-Za-z0-9_-]{16,}/g', SAFE],
  [
    'src/secrets.ts /(?<![\\w.-])eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*/g',
    fixed('redacts a JWT after a megabyte of near-JWTs'),
  ],
  ['src/secrets.ts /(Bearer\\s+)[^\\s"\']+/gi', SAFE],
  ['src/secrets.ts /^Bearer/i', SAFE],
  ['src/store/open.ts /^rediss?:\\/\\//i', SAFE],
  ['src/tee/attestation.ts /^0x/', SAFE],
  ['src/tee/bytes.ts /^0x/i', SAFE],
  ['src/tee/bytes.ts /^[0-9a-f]*$/i', SAFE],
  ['src/tee/eip191.ts /^0x/', SAFE],
  ['src/tee/eip191.ts /^[0-9a-f]{40}$/', SAFE],
  ['src/tee/gpu-evidence.ts /^[A-Za-z0-9+/=\\s_-]*$/', SAFE],
  ['src/tee/quote-checks.ts /^0x/', SAFE],
  ['src/tee/reply-signature.ts /^[0-9a-f]{64}$/', SAFE],
  ['src/tee/x509.ts /\\n/g', SAFE],
  [
    'src/untrusted.ts /[\\u{E0000}-\\u{E007F}\\u202A-\\u202E\\u2066-\\u2069\\u200B-\\u200F\\u061C\\u2060\\uFEFF]/gu',
    SAFE,
  ],
  [
    "src/untrusted.ts new RegExp(FENCE_NAME, 'gi')",
    'built from our own literal `untrusted-web-content` (no quantifier): a literal search, linear',
  ],
  ['src/upstream/cache.ts /^"|"$/g', SAFE],
  ['src/upstream/client.ts /json/i', SAFE],
  ['src/upstream/client.ts /[^\\x21-\\x7e]/g', SAFE],
  ['src/upstream/outgoing.ts /^https?:\\/\\//', SAFE],
  ['src/upstream/pricing.ts /^x_[a-z0-9]+_pricing$/i', SAFE],
  ['src/upstream/pricing.ts /^x-[a-z0-9]+-cost$/i', SAFE],
  [
    'tools/account/batch-query.ts /^(\\d{4})-(\\d{2})-(\\d{2})[Tt ](\\d{2}):(\\d{2}):(\\d{2})(?:\\.(\\d{1,3}))?(?:([Zz])|([+-])(\\d{2})(?::?(\\d{2}))?)$/',
    SAFE,
  ],
  ['tools/account/batch-query.ts /^-?\\d{1,12}$/', SAFE],
  ['tools/account/settings_write.ts /^\\d+$/', SAFE],
  ['tools/data/reply.ts /^x-[a-z0-9]+-data-endpoint$/i', SAFE],
  ['tools/data/reply.ts /^x-[a-z0-9]+-direct-endpoint$/i', SAFE],
  ['tools/data/reply.ts /json/i', SAFE],
  ['tools/data/shared.ts /^https?:\\/\\//i', SAFE],
  ['tools/data/shared.ts /^https?:\\/\\/[^/]+/', SAFE],
  ['tools/data/shared.ts /^\\/+/', SAFE],
  ['tools/data/shared.ts /^api\\/v1\\/data\\//', SAFE],
  [
    'tools/data/shared.ts /(?<!\\/)\\/+$/',
    fixed('normalizes a data endpoint id ending in a megabyte of slashes'),
  ],
  ['tools/data/shared.ts /\\//g', SAFE],
  ['tools/data/shared.ts /-/g', SAFE],
  ['tools/data/shared.ts /[^a-z0-9]/g', SAFE],
  ['tools/data/shared.ts /_/g', SAFE],
  [
    'tools/embeddings/embed.ts /\\.?0+$/',
    'bounded: applied to `amount.toFixed(10)`, a number the server formats (at most about 32 characters)',
  ],
  ['tools/evals/evals_write.ts /^evaldataset_[A-Za-z0-9_-]{6,80}$/', SAFE],
  ['tools/evals/rows.ts /\\.([a-z]+)$/i', SAFE],
  ['tools/evals/rows.ts /\\r?\\n/', SAFE],
  ['tools/evals/rows.ts /^metadata\\.\\S+$/', SAFE],
  [
    'tools/evals/scorer-def.ts new RegExp(c.pattern, c.flags)',
    "built from a caller's scorer pattern, compiled only to check it (the platform runs it): compiling is linear in the pattern",
  ],
  ['tools/evals/scorer-def.ts /^[imsu]*$/', SAFE],
  ['tools/evals/scorer-def.ts /\\{\\{\\s*([A-Za-z0-9_]+)\\s*\\}\\}/g', SAFE],
  ['tools/evals/shared.ts /s$/', SAFE],
  ['tools/keys/api_keys_write.ts /(?:Z|[+-]\\d{2}:?\\d{2})$/i', SAFE],
  ['tools/keys/create.ts /^[A-Za-z0-9_-]{1,100}$/', SAFE],
  ['tools/media/audio.ts /^\\s*(audio\\/|application\\/(octet-stream|ogg)\\b)/i', SAFE],
  ['tools/media/video-routes.ts /json/i', SAFE],
  ['tools/payments/x402_complete.ts /^[0-9a-f]{64}$/', SAFE],
  ['tools/payments/x402_complete.ts /^[A-Za-z0-9+/=_-]+$/', SAFE],
  [
    'tools/teams/invitations.ts /^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$/',
    bounded(
      'refuses a megabyte e-mail address to invite',
      'after `.max(254, { abort: true })`: it reads at most 254 characters',
    ),
  ],
  ['tools/teams/shared.ts /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i', SAFE],
  ['tools/teams/shared.ts /^\\d+$/', SAFE],
  ['tools/teams/shared.ts /, ([^,]*)$/', SAFE],
  ['tools/teams/teams_write.ts /^[\\p{L}\\p{N} _-]{2,50}$/u', SAFE],
  [
    'tools/text/legacy.ts /^<\\/([A-Za-z][\\w-]*)>$/',
    fixed("reads the legacy route's cost block after a megabyte of look-alike tags"),
  ],
  ['tools/text/reply-responses.ts /"type"\\s*:\\s*"response\\.(completed|incomplete)"/', SAFE],
  ['prompts/summarize_video.ts /^https?$/', SAFE],
]);

describe('the regular expressions of the shipped code', () => {
  const sites = regexSites(fileURLToPath(new URL('../..', import.meta.url)));
  const keys = new Set(sites.map((site) => `${site.file} ${site.text}`));

  it('each has a verdict on its running time', () => {
    const without = [...keys].filter((key) => !VERDICTS.has(key));
    expect(without, 'run npx tsx scripts/regex-audit.ts, then add a verdict here').toEqual([]);
  });

  it('has no verdict left for a regex that is gone', () => {
    expect([...VERDICTS.keys()].filter((key) => !keys.has(key))).toEqual([]);
  });
});
