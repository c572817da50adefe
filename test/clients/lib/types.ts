/** What the orchestrator (run.ts) and a worker (worker.ts) exchange about one case of the matrix. */

/** 2026-07-28 (per-request `_meta`, no sessions) or a 2025 revision (initialize, sessions). */
export type Era = 'modern' | 'legacy';

/** How the client reaches the built server. */
export type Transport = 'stdio' | 'http' | 'http-stateless';

export type ClientId =
  | 'sdk-v2'
  | 'ai-sdk-2'
  | 'ai-sdk-1'
  | 'langchain'
  | 'openai-agents'
  | 'mastra'
  | 'mcp-remote';

export interface Case {
  id: string;
  client: ClientId;
  transport: Transport;
  era: Era;
  /** The Node major the client runs on (the server always runs on the project's own Node). */
  node: 20 | 22;
}

/** What a worker is told: the case, how to start the server over stdio, and where HTTP servers listen. */
export interface WorkerInput {
  case: Case;
  /** `node dist/orbit-mcp.js --sandbox`, with the project's Node. */
  server: { command: string; args: string[] };
  /** The HTTP endpoint for `http` / `http-stateless` cases. */
  url?: string;
  /** A folder the worker may write to (wire logs, config of clients that keep state). */
  scratch: string;
}

export type Status = 'pass' | 'fail' | 'n/a';

export interface Cell {
  status: Status;
  note?: string;
}

/** A tool as the framework hands it to a model: its name and JSON Schema parameters. */
export interface DeliveredTool {
  name: string;
  parameters: unknown;
}

/** A framework's own OpenAI strict conversion of one tool (where the framework has one). */
export interface StrictTool extends DeliveredTool {
  strict: boolean;
}

export interface WorkerResult {
  id: string;
  /** package@version of the client under test. */
  version: string;
  node: string;
  /** The protocol revision seen on the wire (tools/call `_meta`, else initialize). */
  wireEra?: string;
  list: Cell;
  chat: Cell;
  search: Cell;
  image: Cell;
  /** Anything the framework warned about while listing and converting tools. */
  warnings: string[];
  delivered: DeliveredTool[];
  frameworkStrict?: StrictTool[];
  /** The framework's warnings while converting to strict mode (openai-agents only). */
  strictWarnings?: string[];
  /** Errors the client's transport reported during the journey (AI SDK: its onUncaughtError). */
  transportErrors?: string[];
  error?: string;
}
