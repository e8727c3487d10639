CREATE TABLE `storage_shards` (
	`kind` text NOT NULL,
	`binding` text NOT NULL,
	`next_key` integer DEFAULT 1 NOT NULL,
	`agents` integer DEFAULT 0 NOT NULL,
	`full_at` integer,
	`full_reason` text,
	`used` integer,
	`checked_at` integer,
	PRIMARY KEY(`kind`, `binding`)
);
--> statement-breakpoint
ALTER TABLE `agents` ADD `d1_shard` text DEFAULT 'DB' NOT NULL;--> statement-breakpoint
ALTER TABLE `agents` ADD `d1_key` integer;--> statement-breakpoint
ALTER TABLE `agents` ADD `vector_index` text;--> statement-breakpoint
CREATE UNIQUE INDEX `agents_d1_key` ON `agents` (`d1_shard`,`d1_key`);