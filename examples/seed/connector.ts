import { connectors } from 'pipewright';
import { seedProject } from './project.js';

/** An anonymous Docker Hub registry connector in the seed project. */
export const dockerHub = connectors.dockerRegistry({
  identifier: 'dockerhub',
  name: 'Docker Hub',
  description: '',
  tags: {},
  project: seedProject,
  url: 'https://index.docker.io/v2/',
  provider: 'DockerHub',
  auth: 'Anonymous',
});
