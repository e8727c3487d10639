/**
 * Links written straight into D1 by a test (bulk agents without the API): rows of `select` (columns
 * agent, source, target, relation, level, epoch, created_at) grouped into the blocks the app stores
 * (src/storage/link-blocks.ts), as migration 0012 converts them. Reads go through the view `links`.
 */
export function insertLinkRowsSql(select: string): string {
  return `INSERT INTO link_blocks (agent, spage, tpage, body)
    SELECT agent, spage, tpage, json_group_object(source, json(entries)) FROM (
      SELECT agent, source >> 8 AS spage, target >> 8 AS tpage, source,
             json_group_object(target || '|' || relation, json_object('l', json(printf('%!.17g', level)), 'e', epoch, 'c', created_at)) AS entries
      FROM (${select}) GROUP BY agent, source, target >> 8
    ) WHERE true GROUP BY agent, spage, tpage
    ON CONFLICT (agent, spage, tpage) DO UPDATE SET body = json_patch(excluded.body, link_blocks.body)`;
}
