/** The task status view under its OpenAPI name. */
import { TaskStatusViewSchema } from "../agent/views";

export const TaskStatusSchema = TaskStatusViewSchema.openapi("TaskStatus");
