// A secret of an environment as anyone but the live endpoint sees it: its name, version, who and when — never its value.
export interface SecretInfo {
  name: string;
  version: number;
  updated_by: string | null;
  updated_at: string;
}
