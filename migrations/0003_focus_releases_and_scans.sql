DROP INDEX `nodes_scan`;--> statement-breakpoint
ALTER TABLE `nodes` ADD `released_clock` real;--> statement-breakpoint
ALTER TABLE `nodes` ADD `released_epoch` integer;--> statement-breakpoint
ALTER TABLE `nodes` DROP COLUMN `scan_count`;--> statement-breakpoint
ALTER TABLE `nodes` DROP COLUMN `scanned_cycle`;--> statement-breakpoint
ALTER TABLE `links` ADD `epoch` integer DEFAULT 0 NOT NULL;