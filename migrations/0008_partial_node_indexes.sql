DROP INDEX `nodes_entity_name`;--> statement-breakpoint
DROP INDEX `nodes_superseded`;--> statement-breakpoint
CREATE UNIQUE INDEX `nodes_entity_name` ON `nodes` (`agent`,`name`) WHERE "nodes"."name" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `nodes_superseded` ON `nodes` (`agent`,`superseded_by`) WHERE "nodes"."superseded_by" IS NOT NULL;