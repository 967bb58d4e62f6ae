"""Clients that are not ours drive mcpgym episodes (MCP TypeScript SDK, OpenAI Agents SDK)."""
