// Generates, in the working directory, the clients check.ts is written
// against, from the documents events.json and admin.json there: with
// @hey-api/openapi-ts (an SDK under generated/hey/) and with
// openapi-typescript (types for openapi-fetch under generated/fetch/). One
// process for both generators: each start of Node costs more than a document.
import { createClient } from "@hey-api/openapi-ts";
import openapiTS, { astToString } from "openapi-typescript";
import { mkdir, readFile, writeFile } from "node:fs/promises";

const namespaces = ["events", "admin"];
await mkdir("generated/fetch", { recursive: true });
for (const ns of namespaces) {
  const doc = JSON.parse(await readFile(`${ns}.json`, "utf8"));
  await writeFile(`generated/fetch/${ns}.d.ts`, astToString(await openapiTS(doc)));
}
await createClient(namespaces.map((ns) => ({ input: `${ns}.json`, output: `generated/hey/${ns}`, logs: { level: "silent" } })));
