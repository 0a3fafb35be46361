import { project } from 'pipewright';

// The project that owns the pipelines below. Pipelines reference it by value (not by a string), so the
// compiler checks the project is part of the same compile and the identifiers agree.
export const appProject = project({
  identifier: '{{projectIdentifier}}',
  name: '{{projectName}}',
  org: 'default',
  description: 'Managed in Git with pipewright',
});
