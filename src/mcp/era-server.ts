import { Server, type ServerCapabilities } from '@modelcontextprotocol/server';

/** The first revision of the 2026 era (`server/discover`, no sessions), which the serving entries add to the SDK's 2025 list. */
export const FIRST_MODERN = '2026-07-28';

/**
 * The SDK's Server, declaring the Logging capability to 2025 clients only: 2026-07-28 deprecates
 * it and allows a log notification only to a request that carries its own log level (SEP-2577),
 * which the SDK holds to. `server/discover` and `initialize` both read the capabilities here, once
 * the connection's revision is known.
 */
export class EraServer extends Server {
  override getCapabilities(): ServerCapabilities {
    const capabilities = super.getCapabilities();
    if ((this.getNegotiatedProtocolVersion() ?? '') < FIRST_MODERN) return capabilities;
    const { logging: _deprecated, ...rest } = capabilities;
    return rest;
  }
}
