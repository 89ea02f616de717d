import path from 'node:path';
import Database from 'better-sqlite3';
import { DISTINCT_IDS, flagSet, personOf } from '@service/test-support';

/** Creates the 50 flags through the API and 10k persons straight in the SQLite file. */
export async function seed(service) {
  const headers = { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' };
  for (const flag of flagSet()) {
    const res = await fetch(`${service.url}/api/projects/${service.projectId}/feature_flags/`, { method: 'POST', headers, body: JSON.stringify(flag) });
    if (res.status !== 201) throw new Error(`creating ${flag.key}: ${res.status} ${await res.text()}`);
  }
  // 10k persons with properties, as ingestion would leave them.
  const db = new Database(path.join(service.dataDir, 'service.db'));
  db.pragma('busy_timeout = 5000');
  const now = new Date().toISOString();
  const person = db.prepare('insert into persons (project_id, uuid, properties, is_identified, created_at, updated_at) values (?, ?, ?, 1, ?, ?) returning id');
  const distinct = db.prepare('insert into person_distinct_ids (project_id, distinct_id, person_id) values (?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < DISTINCT_IDS; i++) {
      const { id } = person.get(service.projectId, crypto.randomUUID(), JSON.stringify(personOf(i)), now, now);
      distinct.run(service.projectId, `user-${i}`, id);
    }
  })();
  db.close();
}
