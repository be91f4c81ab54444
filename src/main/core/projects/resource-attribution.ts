/** The resource type Framewright declares as a platform application (spec A, `resourceAttribution`). */
export const PROJECT_RESOURCE_TYPE = 'project';

/** What a runtime creation body carries for a job filed under a project. */
export interface ResourceAttribution {
  readonly resourceType: typeof PROJECT_RESOURCE_TYPE;
  readonly resourceId: string;
}

/**
 * The `resourceAttribution` of a job filed under `projectId`, or undefined when it is filed under
 * none (the field is optional and then left out of the body).
 */
export function resourceAttributionFor(projectId: string | undefined): ResourceAttribution | undefined {
  if (projectId === undefined || projectId === '') return undefined;
  return { resourceType: PROJECT_RESOURCE_TYPE, resourceId: projectId };
}
