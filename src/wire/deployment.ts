// A deployment of an environment, as the deployment tools answer it.
import type { Via } from './via.js';

export interface DeploymentView {
  deployment: number;
  path: string;
  revision: number;
  operator: string | null;
  via: Via;
  rollback: boolean;
  deployed_at: string;
}
