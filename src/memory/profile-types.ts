/** What a profile is (docs/design.md, "The profile"): built by profile.ts, written as text by profile-text.ts. */

export interface ProfileLine {
  participant: string;
  text: string;
  memory_ids: number[];
}

export interface ProfileEntity {
  node_id: number;
  name: string;
  importance: number;
  /** The profile's memories that are about it. */
  memory_ids: number[];
}

export interface Profile {
  /** Whom the profile is about; null: every participant. */
  participant: string | null;
  participants: { name: string; messages: number }[];
  lines: ProfileLine[];
  entities: ProfileEntity[];
  focus: { node_id: number; name: string }[];
}
