CREATE TABLE `entity_aliases` (
	`agent` integer NOT NULL,
	`key` text NOT NULL,
	`name` text NOT NULL,
	`node_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`agent`, `key`)
);
--> statement-breakpoint
CREATE INDEX `entity_aliases_node` ON `entity_aliases` (`agent`,`node_id`);--> statement-breakpoint
ALTER TABLE `nodes` ADD `superseded_by` integer;--> statement-breakpoint
ALTER TABLE `nodes` ADD `meta` text;--> statement-breakpoint
CREATE INDEX `nodes_superseded` ON `nodes` (`agent`,`superseded_by`);