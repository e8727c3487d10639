ALTER TABLE `nodes` ADD `session_id` text;--> statement-breakpoint
ALTER TABLE `nodes` ADD `metadata` text;--> statement-breakpoint
ALTER TABLE `nodes` ADD `expires_at` integer;--> statement-breakpoint
CREATE INDEX `nodes_session` ON `nodes` (`agent`,`session_id`,`id`) WHERE "nodes"."session_id" IS NOT NULL;