// The official TypeScript SDK as a client of any MCP server script: list its tools, make calls.
//
//     node tests/ts_client/calls.mjs PYTHON SERVER_SCRIPT CALLS_JSON
//
// CALLS_JSON is an array of {"name": ..., "arguments": ...}. Starts the server over stdio, lists
// its tools (so that the client checks each structuredContent against the tool's outputSchema,
// as the SDK does for every tool it has listed), makes each call in turn and prints one JSON
// object on stdout: the server, the tools, and each call's result (or the error the SDK raised).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [python, server, calls] = process.argv.slice(2);
if (!python || !server || !calls) {
  console.error("usage: node calls.mjs PYTHON SERVER_SCRIPT CALLS_JSON");
  process.exit(2);
}

const transport = new StdioClientTransport({ command: python, args: [server], stderr: "inherit" });
const client = new Client({ name: "adecore-tools-ts-calls", version: "1.0.0" });

await client.connect(transport);
try {
  const listing = await client.listTools();
  const results = [];
  for (const { name, arguments: args } of JSON.parse(calls)) {
    try {
      results.push({ result: await client.callTool({ name, arguments: args }) });
    } catch (error) {
      results.push({ error: String(error) });
    }
  }
  const output = { server: client.getServerVersion(), tools: listing.tools, results };
  process.stdout.write(JSON.stringify(output) + "\n");
} finally {
  await client.close();
}
