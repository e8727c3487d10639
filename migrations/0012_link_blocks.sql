-- Custom migration (docs/design.md, "Decision 2"): links move from a row each (with three index
-- entries) to blocks of links between two pages of 256 ids, one JSON body each
-- (src/storage/link-blocks.ts). The view `links` shows them one row per link, for reading by hand.
CREATE TABLE `link_blocks` (
	`agent` integer NOT NULL,
	`spage` integer NOT NULL,
	`tpage` integer NOT NULL,
	`body` text NOT NULL,
	PRIMARY KEY(`agent`, `spage`, `tpage`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `link_blocks_target` ON `link_blocks` (`agent`,`tpage`,`spage`);
--> statement-breakpoint
INSERT INTO `link_blocks` (`agent`, `spage`, `tpage`, `body`)
SELECT `agent`, `spage`, `tpage`, json_group_object(`source`, json(`entries`)) FROM (
	SELECT `agent`, `source` >> 8 AS `spage`, `target` >> 8 AS `tpage`, `source`,
		json_group_object(`target` || '|' || `relation`, json_object('l', json(printf('%!.17g', `level`)), 'e', `epoch`, 'c', `created_at`)) AS `entries`
	FROM `links` GROUP BY `agent`, `source`, `target` >> 8
) GROUP BY `agent`, `spage`, `tpage`;
--> statement-breakpoint
DROP TABLE `links`;
--> statement-breakpoint
CREATE VIEW `links` AS
SELECT b.`agent` AS `agent`, CAST(js.key AS INTEGER) AS `source`,
	CAST(substr(jt.key, 1, instr(jt.key, '|') - 1) AS INTEGER) AS `target`,
	substr(jt.key, instr(jt.key, '|') + 1) AS `relation`,
	json_extract(jt.value, '$.l') AS `level`, json_extract(jt.value, '$.e') AS `epoch`,
	json_extract(jt.value, '$.c') AS `created_at`
FROM `link_blocks` b, json_each(b.`body`) js, json_each(js.value) jt;
