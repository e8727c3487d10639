ALTER TABLE `agents` ADD `jurisdiction` text;--> statement-breakpoint
ALTER TABLE `agents` ADD `region` text;--> statement-breakpoint
ALTER TABLE `tenants` ADD `jurisdiction` text;--> statement-breakpoint
ALTER TABLE `tenants` ADD `region` text;