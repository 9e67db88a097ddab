/** MCP for Mnemo: the hosted Streamable HTTP endpoint (`mountMcp`) and the stdio bridge (`runStdioBridge`). */
export { mountMcp, mcpOriginAllowed, type McpDeps } from './mount-mcp.ts';
export { runStdioBridge, bridgeIdentity, mnemoJsonRpcError } from './stdio-bridge.ts';
export { createMcpServer, mcpToolNames } from './mcp-tools.ts';
export { clientPort, enginePort, type MemoryPort } from './memory-port.ts';
