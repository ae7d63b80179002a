// A conversation's session credentials, as minted (the token shown once) and as listed (never the token).

/** Who holds a credential: the agent the server started for the thread, or a client the operator connected. */
export type CredentialHolder = 'agent' | 'client';

export interface SessionCredential {
  id: string;
  token: string;
  thread: string;
  expires_at: string;
}

export interface SessionCredentialListing {
  id: string;
  holder: CredentialHolder;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
}
