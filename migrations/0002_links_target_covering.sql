DROP INDEX `links_target`;--> statement-breakpoint
CREATE INDEX `links_target` ON `links` (`agent`,`target`,`source`);