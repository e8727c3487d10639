ALTER TABLE `nodes` ADD `pinned` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `nodes_pinned` ON `nodes` (`agent`,`pinned`,`id`);