// A second, independent MCP client for examples/mcp_server.py: the official TypeScript SDK.
//
//     node tests/ts_client/client.mjs PYTHON SERVER_SCRIPT
//
// Starts the server over stdio (as a writer: NOTES_MAY_WRITE=1), lists its tools, reads, writes,
// reads again and sends bad arguments, then prints what came back as one JSON object on stdout.
// tests/test_ts_client.py runs it and checks the output.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [python, server] = process.argv.slice(2);
if (!python || !server) {
  console.error("usage: node client.mjs PYTHON SERVER_SCRIPT");
  process.exit(2);
}

const transport = new StdioClientTransport({
  command: python,
  args: [server],
  env: { NOTES_MAY_WRITE: "1" }, // merged over the SDK's default environment
  stderr: "inherit",
});
const client = new Client({ name: "adecore-tools-ts-client", version: "1.0.0" });

await client.connect(transport);
try {
  const listing = await client.listTools();
  const before = await client.callTool({ name: "note_read", arguments: {} });
  const write = await client.callTool({
    name: "note_write",
    arguments: { text: "Buy milk", revision: 0 },
  });
  const after = await client.callTool({ name: "note_read", arguments: { limit: null } });
  const bad = await client.callTool({
    name: "note_write",
    arguments: { text: "", revision: -1, dryrun: true },
  });
  const output = {
    server: client.getServerVersion(),
    tools: listing.tools,
    calls: { before, write, after, bad },
  };
  process.stdout.write(JSON.stringify(output) + "\n");
} finally {
  await client.close();
}
