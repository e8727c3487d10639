CREATE TABLE `agent_usage` (
	`tenant_id` text NOT NULL,
	`agent_id` text NOT NULL,
	`day` text NOT NULL,
	`metric` text NOT NULL,
	`value` integer NOT NULL,
	PRIMARY KEY(`tenant_id`, `day`, `metric`, `agent_id`)
);
--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` text NOT NULL,
	`at` integer NOT NULL,
	`action` text NOT NULL,
	`actor` text NOT NULL,
	`request_id` text,
	`agent_id` text,
	`subject` text,
	`details` text
);
--> statement-breakpoint
CREATE INDEX `audit_log_tenant` ON `audit_log` (`tenant_id`,`id`);--> statement-breakpoint
CREATE INDEX `audit_log_at` ON `audit_log` (`at`);--> statement-breakpoint
CREATE TABLE `tenant_usage` (
	`tenant_id` text NOT NULL,
	`day` text NOT NULL,
	`metric` text NOT NULL,
	`value` integer NOT NULL,
	PRIMARY KEY(`tenant_id`, `day`, `metric`)
);
--> statement-breakpoint
CREATE TABLE `tenants` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`max_agents` integer,
	`max_nodes_per_agent` integer,
	`messages_per_day` integer,
	`requests_per_minute` integer,
	`model_weight` integer,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `agents` ADD `nodes_held` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `agents` ADD `vectors_held` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `prefix` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `scope` text DEFAULT 'admin' NOT NULL;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `agent_prefix` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `expires_at` integer;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `last_used_at` integer;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `replaced_by` text;--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_prefix` ON `api_keys` (`prefix`);--> statement-breakpoint
CREATE INDEX `api_keys_tenant` ON `api_keys` (`tenant_id`);