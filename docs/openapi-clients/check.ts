// A small program of the kind a front-end or an importer writes with the
// clients two mainstream generators make from the service's OpenAPI
// documents: it reads one route of each resource and of the administration,
// and writes a category, with @hey-api/openapi-ts's SDK (its base URLs the
// documents' servers, as generated) and with openapi-typescript's types for
// openapi-fetch (the base URLs given, the documents' servers). tsc checks it
// against the generated types; controllers/doc_generated_clients_test.go
// then runs it against the service. Usage:
//   node check.js EVENTS_SERVER ADMIN_SERVER ADMIN_PASSWORD
import createClient from "openapi-fetch";
import type { paths as EventsPaths } from "./generated/fetch/events";
import type { paths as AdminPaths } from "./generated/fetch/admin";
import * as hey from "./generated/hey/events";
import * as heyAdmin from "./generated/hey/admin";
import { client as heyClient } from "./generated/hey/events/client.gen";
import { client as heyAdminClient } from "./generated/hey/admin/client.gen";

// Node's, declared here rather than from @types/node: one package fewer.
declare const process: { argv: string[]; exit(code: number): never };

const [eventsServer, adminServer, password] = process.argv.slice(2);
const headers = { Authorization: "Basic " + btoa("admin:" + password) };
const failures: string[] = [];

// expect records a call's outcome: it must answer status and hold what has says.
function expect(what: string, response: Response | undefined, status: number, has: boolean, data: unknown): void {
  if (response?.status === status && has) {
    console.log("ok " + what);
  } else {
    failures.push(`${what}: ${response?.status} ${response?.url} ${JSON.stringify(data)?.slice(0, 300)}`);
  }
}

async function withOpenAPIFetch(): Promise<void> {
  const events = createClient<EventsPaths>({ baseUrl: eventsServer, headers });
  const admin = createClient<AdminPaths>({ baseUrl: adminServer, headers });
  const list = await events.GET("/events", { params: { query: { per_page: 1 } } });
  expect("openapi-fetch GET /events", list.response, 200, list.data?.events.length === 1, list.data ?? list.error);
  const id = list.data?.events[0]?.id ?? 0;
  const event = await events.GET("/events/{id}", { params: { path: { id } } });
  expect("openapi-fetch GET /events/{id}", event.response, 200, event.data?.id === id, event.data ?? event.error);
  const venues = await events.GET("/venues");
  expect("openapi-fetch GET /venues", venues.response, 200, (venues.data?.venues.length ?? 0) > 0, venues.data ?? venues.error);
  const organizers = await events.GET("/organizers");
  expect("openapi-fetch GET /organizers", organizers.response, 200, (organizers.data?.organizers.length ?? 0) > 0, organizers.data ?? organizers.error);
  const categories = await events.GET("/categories", { params: { query: { hide_empty: false } } });
  expect("openapi-fetch GET /categories", categories.response, 200, (categories.data?.categories.length ?? 0) > 0, categories.data ?? categories.error);
  const tags = await events.GET("/tags");
  expect("openapi-fetch GET /tags", tags.response, 200, (tags.data?.tags.length ?? 0) > 0, tags.data ?? tags.error);
  const media = await events.GET("/media");
  expect("openapi-fetch GET /media", media.response, 200, Array.isArray(media.data), media.data ?? media.error);
  const changes = await events.GET("/changes", { params: { query: { since: 0 } } });
  expect("openapi-fetch GET /changes", changes.response, 200, (changes.data?.changes.length ?? 0) > 0, changes.data ?? changes.error);
  const created = await events.POST("/categories", { body: { name: "Written by openapi-fetch" } });
  expect("openapi-fetch POST /categories", created.response, 201, created.data?.name === "Written by openapi-fetch", created.data ?? created.error);
  const me = await admin.GET("/users/me");
  expect("openapi-fetch GET {admin}/users/me", me.response, 200, me.data?.login === "admin", me.data ?? me.error);
}

async function withHeyAPI(): Promise<void> {
  heyClient.setConfig({ headers });
  heyAdminClient.setConfig({ headers });
  const list = await hey.getVendorEventsV1Events({ query: { per_page: 1 } });
  expect("hey-api GET /events", list.response, 200, list.data?.events.length === 1, list.data ?? list.error);
  const id = list.data?.events[0]?.id ?? 0;
  const event = await hey.getVendorEventsV1EventsId({ path: { id } });
  expect("hey-api GET /events/{id}", event.response, 200, event.data?.id === id, event.data ?? event.error);
  const venues = await hey.getVendorEventsV1Venues();
  expect("hey-api GET /venues", venues.response, 200, (venues.data?.venues.length ?? 0) > 0, venues.data ?? venues.error);
  const organizers = await hey.getVendorEventsV1Organizers();
  expect("hey-api GET /organizers", organizers.response, 200, (organizers.data?.organizers.length ?? 0) > 0, organizers.data ?? organizers.error);
  const categories = await hey.getVendorEventsV1Categories({ query: { hide_empty: false } });
  expect("hey-api GET /categories", categories.response, 200, (categories.data?.categories.length ?? 0) > 0, categories.data ?? categories.error);
  const tags = await hey.getVendorEventsV1Tags();
  expect("hey-api GET /tags", tags.response, 200, (tags.data?.tags.length ?? 0) > 0, tags.data ?? tags.error);
  const media = await hey.getVendorEventsV1Media();
  expect("hey-api GET /media", media.response, 200, Array.isArray(media.data), media.data ?? media.error);
  const changes = await hey.getVendorEventsV1Changes({ query: { since: 0 } });
  expect("hey-api GET /changes", changes.response, 200, (changes.data?.changes.length ?? 0) > 0, changes.data ?? changes.error);
  const created = await hey.postVendorEventsV1Categories({ body: { name: "Written by hey-api" } });
  expect("hey-api POST /categories", created.response, 201, created.data?.name === "Written by hey-api", created.data ?? created.error);
  const me = await heyAdmin.getVendorAdminV1UsersMe();
  expect("hey-api GET {admin}/users/me", me.response, 200, me.data?.login === "admin", me.data ?? me.error);
}

async function main(): Promise<void> {
  await withOpenAPIFetch();
  await withHeyAPI();
  if (failures.length > 0) {
    console.error(failures.join("\n"));
    process.exit(1);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
