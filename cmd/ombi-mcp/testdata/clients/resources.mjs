// Lists ombi-mcp's resources and templates with the official TypeScript
// SDK client, then reads the first listed resource and the resources that
// read_library (artwork) and read_logs (list) link, and prints one JSON
// line: {"resources":[uri...],"templates":[tmpl...],"reads":{uri:{mimeType,ok}}}.
//
//   node resources.mjs stdio COMMAND ARGS...   (the environment is passed on)
//   node resources.mjs http URL                (MCP_TOKEN, if set, is the bearer token)
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, target, ...args] = process.argv.slice(2);
const headers = process.env.MCP_TOKEN ? { Authorization: `Bearer ${process.env.MCP_TOKEN}` } : {};
const transport =
  mode === "http"
    ? new StreamableHTTPClientTransport(new URL(target), { requestInit: { headers } })
    : new StdioClientTransport({ command: target, args, env: process.env, stderr: "inherit" });
const client = new Client({ name: "ombi-mcp-resources-check", version: "1.0.0" });
await client.connect(transport);

const out = { resources: [], templates: [], reads: {} };
out.resources = (await client.listResources()).resources.map((r) => r.uri);
out.templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
const linked = [];
for (const [name, args] of [
  ["read_library", { action: "movie_images", kind: "poster", tmdb_id: 603 }],
  ["read_logs", { action: "list" }],
]) {
  const res = await client.callTool({ name, arguments: args });
  const link = res.content.find((c) => c.type === "resource_link");
  if (link) linked.push(link.uri);
}
for (const uri of [out.resources[0], ...linked]) {
  const r = await client.readResource({ uri });
  out.reads[uri] = { mimeType: r.contents[0].mimeType, ok: JSON.parse(r.contents[0].text).ok };
}
console.log(JSON.stringify(out));
await client.close();
