import crypto from 'node:crypto';
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

/**
 * Adds projects to the SQLite file of a seeded (and stopped) service until there are `count` with the 50 flags of
 * project `projectId`, copied row for row, and `personsEach` persons (`user-0` …) each. Returns every project's token.
 */
export function seedManyProjects(dataDir, projectId, count, personsEach) {
  const db = new Database(path.join(dataDir, 'service.db'));
  db.pragma('busy_timeout = 5000');
  const now = new Date().toISOString();
  const columns = db
    .prepare('select name from pragma_table_info(?)')
    .all('feature_flags')
    .map((c) => c.name)
    .filter((c) => c !== 'id' && c !== 'project_id');
  const project = db.prepare('insert into projects (name, api_token, created_at) values (?, ?, ?) returning id');
  const flags = db.prepare(
    `insert into feature_flags (project_id, ${columns.join(', ')}) select ?, ${columns.join(', ')} from feature_flags where project_id = ?`,
  );
  const person = db.prepare('insert into persons (project_id, uuid, properties, is_identified, created_at, updated_at) values (?, ?, ?, 1, ?, ?) returning id');
  const distinct = db.prepare('insert into person_distinct_ids (project_id, distinct_id, person_id) values (?, ?, ?)');
  const tokens = [db.prepare('select api_token from projects where id = ?').get(projectId).api_token];
  db.transaction(() => {
    for (let p = 1; p < count; p++) {
      const token = `phc_bench_${p}_${crypto.randomBytes(8).toString('hex')}`;
      const { id } = project.get(`Bench project ${p}`, token, now);
      flags.run(id, projectId);
      for (let i = 0; i < personsEach; i++) distinct.run(id, `user-${i}`, person.get(id, crypto.randomUUID(), JSON.stringify(personOf(i)), now, now).id);
      tokens.push(token);
    }
  })();
  db.close();
  return tokens;
}
