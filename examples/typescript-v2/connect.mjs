// Connect to an mcpgym URL with the MCP TypeScript SDK v2 client (@modelcontextprotocol/client).
//
//   npm ci                                   # once, in this folder
//   node connect.mjs "http://127.0.0.1:8000/tasks/order-status/mcp?seed=0" auto
//   node connect.mjs "http://127.0.0.1:8000/tasks/order-status/mcp?seed=0" 2026-07-28
//
// The second argument is the client's version negotiation: `auto` probes `server/discover`
// and falls back to the 2025 handshake (what the connect-to-start URL needs: its MCP session
// is the episode), `legacy` skips the probe, a version such as `2026-07-28` pins the client
// to that sessionless era (served on an episode's own mcp_url; connect-to-start refuses it
// at connect, saying so). `MCPGYM_CONTROL_TOKEN` is sent as `Authorization: Bearer`, which
// connect-to-start requires.
//
// It lists the tools, reads the episode resource, calls one tool and `submit`, then prints
// one JSON line: {protocol_version, session, instructions, tools, episode_id, called,
// submitted} on success, {error} (the message the client raised) when the connection is
// refused.

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const [url, mode = "auto", tool = "list_tickets"] = process.argv.slice(2);
const token = process.env.MCPGYM_CONTROL_TOKEN;
const headers = token ? { authorization: `Bearer ${token}` } : {};
const negotiation = mode === "auto" || mode === "legacy" ? mode : { pin: mode };

const client = new Client(
  { name: "mcpgym-typescript-v2-example", version: "1.0.0" },
  { versionNegotiation: { mode: negotiation } },
);
const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
const textOf = (result) =>
  result.content.filter((c) => c.type === "text").map((c) => c.text).join("\n").slice(0, 300);

try {
  await client.connect(transport);
} catch (error) {
  console.log(JSON.stringify({ error: String(error?.message ?? error) }));
  process.exit(0);
}
try {
  const { tools } = await client.listTools();
  const { contents } = await client.readResource({ uri: "mcpgym://episode" });
  const episode = JSON.parse(contents[0].text);
  const called = await client.callTool({ name: tool, arguments: {} });
  const submitted = await client.callTool({ name: "submit", arguments: {} });
  console.log(
    JSON.stringify({
      protocol_version: client.getNegotiatedProtocolVersion?.() ?? transport.protocolVersion ?? null,
      session: transport.sessionId !== undefined,
      instructions: client.getInstructions() ?? null,
      tools: tools.map((t) => t.name),
      episode_id: episode.episode_id,
      called: { isError: called.isError === true, text: textOf(called) },
      submitted: { isError: submitted.isError === true, text: textOf(submitted) },
    }),
  );
} finally {
  await client.close();
}
