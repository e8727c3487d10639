DROP INDEX `nodes_pinned`;--> statement-breakpoint
CREATE INDEX `nodes_pinned` ON `nodes` (`agent`,`id`) WHERE "nodes"."pinned" = 1;