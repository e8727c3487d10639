CREATE TABLE `agents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` text NOT NULL,
	`agent_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_active_at` integer NOT NULL,
	`due_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agents_tenant_agent` ON `agents` (`tenant_id`,`agent_id`);--> statement-breakpoint
CREATE INDEX `agents_due` ON `agents` (`due_at`);--> statement-breakpoint
CREATE TABLE `api_keys` (
	`key_hash` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`label` text,
	`created_at` integer NOT NULL,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE TABLE `links` (
	`id` integer PRIMARY KEY NOT NULL,
	`agent` integer NOT NULL,
	`source` integer NOT NULL,
	`target` integer NOT NULL,
	`relation` text NOT NULL,
	`level` real NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `links_source` ON `links` (`agent`,`source`,`target`,`relation`);--> statement-breakpoint
CREATE INDEX `links_target` ON `links` (`agent`,`target`);--> statement-breakpoint
CREATE INDEX `links_level` ON `links` (`agent`,`level`);--> statement-breakpoint
CREATE TABLE `nodes` (
	`agent` integer NOT NULL,
	`id` integer NOT NULL,
	`kind` text NOT NULL,
	`name` text,
	`content` text NOT NULL,
	`original_length` integer NOT NULL,
	`phrase` text NOT NULL,
	`keywords` text NOT NULL,
	`role` text,
	`speaker` text,
	`source_message_ids` text NOT NULL,
	`source_task_id` text,
	`message_time` integer,
	`created_at` integer NOT NULL,
	`scan_count` integer DEFAULT 0 NOT NULL,
	`scanned_cycle` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`agent`, `id`)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `nodes_entity_name` ON `nodes` (`agent`,`name`);--> statement-breakpoint
CREATE INDEX `nodes_scan` ON `nodes` (`agent`,`scan_count`,`id`);