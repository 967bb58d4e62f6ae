// Drive one mcpgym episode with the official MCP TypeScript SDK (@modelcontextprotocol/sdk).
//
//   npm ci                       # once, in this folder
//   node episode.mjs http://127.0.0.1:8000 order-status easy 0
//   node episode.mjs "http://127.0.0.1:8000/tasks/order-status/mcp?seed=0&band=easy"
//
// The second form is the connect-to-start URL that IDEs and desktop apps are given: the MCP
// session itself is the episode, whose id and instruction come from the `mcpgym://episode`
// resource.
//
// The server's control token (`MCPGYM_CONTROL_TOKEN`, the one `mcpgym serve` was started
// with) is read from the environment and sent as `Authorization: Bearer` on the control
// routes (POST /episodes) and on the connect-to-start URL; the episode's own mcp_url needs
// none, so the agent side never holds it.
//
// Plain ES modules, so it runs on Node >= 18 without a build step; the same code is valid
// TypeScript (add types to taste). It does what any MCP client does with mcpgym:
//   1. POST {env}/episodes {"task", "band", "seed"}  ->  {"episode_id", "mcp_url", "instruction"}
//   2. connect to mcp_url over streamable HTTP, list the tools
//   3. call tools (here: a scripted "where is my order?" answer, where a lab's model would
//      choose the calls), then `submit`, which seals the episode.
// The grade is not the client's business: the harness asks the grading service with a token
// the agent never sees. One JSON line on stdout reports what happened; exit status 1 on failure.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [envUrl = "http://127.0.0.1:8000", task = "order-status", band = "easy", seed = "0"] =
  process.argv.slice(2);

const controlToken = process.env.MCPGYM_CONTROL_TOKEN;
const control = controlToken ? { authorization: `Bearer ${controlToken}` } : {};

/** POST JSON and return the decoded answer; throw on a non-2xx status. */
async function postJson(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...control },
    body: JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(`POST ${url} answered ${response.status}: ${data.error}`);
  return data;
}

/** The text of a tool result (mcpgym tools answer JSON text plus structuredContent). */
function textOf(result) {
  return result.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");
}

/** Call a tool; throw if it answered with an error (for the calls that must succeed). */
async function callJson(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
  return JSON.parse(textOf(result));
}

const connectToStart = /\/tasks\/[^/]+\/mcp/.test(envUrl);
let episode = connectToStart
  ? { mcp_url: envUrl }
  : await postJson(`${envUrl.replace(/\/$/, "")}/episodes`, { task, band, seed: Number(seed) });
const client = new Client({ name: "mcpgym-typescript-example", version: "1.0.0" });
const transport = new StreamableHTTPClientTransport(
  new URL(episode.mcp_url),
  connectToStart ? { requestInit: { headers: control } } : undefined,
);
await client.connect(transport);
if (connectToStart) {
  const { contents } = await client.readResource({ uri: "mcpgym://episode" });
  episode = { ...episode, ...JSON.parse(contents[0].text) }; // {episode_id, instruction}
}

try {
  const { tools } = await client.listTools();

  // A tool error comes back as a result with isError (the agent reads it and carries on),
  // not as an exception: ask for an order that does not exist.
  const missing = await client.callTool({ name: "get_order", arguments: { order_id: 1 } });
  // Arguments that break the tool's JSON schema are refused the same way.
  const badArgs = await client.callTool({ name: "get_ticket", arguments: { ticket_id: "x" } });

  // The "model": read the ticket, find the order, reply with every parcel, close, submit.
  const ticketId = Number(/#(\d+)/.exec(episode.instruction)[1]);
  const ticket = await callJson(client, "get_ticket", { ticket_id: ticketId });
  let orderId = ticket.order_id;
  if (orderId === null) {
    const said = ticket.messages.filter((m) => m.author === "customer").map((m) => m.body).join(" ");
    const orders = await callJson(client, "find_orders", {
      customer_id: ticket.customer_id,
      status: "shipped",
    });
    const match = orders.find((o) => o.items.some((item) => said.includes(item.split(" (")[0])));
    if (!match) throw new Error("could not tell which order the customer means");
    orderId = match.id;
  }
  const order = await callJson(client, "get_order", { order_id: orderId });
  const parcels = order.shipments.map(
    (s) => `${s.carrier} (${s.service}), tracking number ${s.tracking_number}`,
  );
  await callJson(client, "reply_to_customer", {
    ticket_id: ticketId,
    body: `Hello,\n\nOrder #${orderId} is on its way: ${parcels.join("; ")}.`,
  });
  await callJson(client, "close_ticket", {
    ticket_id: ticketId,
    resolution_code: "information_provided",
  });
  const submitted = await callJson(client, "submit", { answer: `Order #${orderId}: ${parcels.join("; ")}` });
  // After submit the episode is sealed: further calls are refused with an error result.
  const afterSeal = await client.callTool({ name: "get_ticket", arguments: { ticket_id: ticketId } });

  const server = client.getServerVersion();
  console.log(
    JSON.stringify({
      episode_id: episode.episode_id,
      variant_id: episode.variant_id ?? null,
      server: server ? `${server.name} ${server.version}` : null,
      protocol_version: transport.protocolVersion ?? null,
      session: transport.sessionId !== undefined,
      tools: tools.map((t) => t.name),
      missing_order: { isError: missing.isError === true, text: textOf(missing) },
      bad_arguments: { isError: badArgs.isError === true, text: textOf(badArgs) },
      submitted,
      after_seal: { isError: afterSeal.isError === true, text: textOf(afterSeal) },
    }),
  );
} finally {
  await client.close();
}
