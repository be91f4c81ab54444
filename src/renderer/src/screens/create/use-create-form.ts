import { useEffect, useMemo } from 'react';
import { validateDraft } from '../../../../shared/h3';
import { useStudio } from '../../store';
import { fitForm, limitsOf, toVideoDraft } from './form-model';

/**
 * The open draft as Create shows it: its service (the chosen one, else the first available), the
 * limits of that service's live contract, the H3 violations of the form, and whether it can still
 * change. A new (or foreign) draft is fitted to the service's contract when the service changes.
 */
export function useCreateForm() {
  const draft = useStudio((s) => s.draft);
  const services = useStudio((s) => s.services);
  const updateForm = useStudio((s) => s.updateForm);
  const form = draft?.form;
  const service = useMemo(
    () => services.find((s) => s.modelAlias === form?.model) ?? services.find((s) => s.available),
    [services, form?.model],
  );
  const limits = useMemo(() => (service ? limitsOf(service) : undefined), [service]);

  useEffect(() => {
    if (!form || !service || !limits || draft?.submittedAt !== null) return;
    // only when the service changes: afterwards, out-of-range values are shown as violations
    if (form.model === service.modelAlias && form.generationMode) return;
    const fitted = fitForm(form, service, limits);
    if (JSON.stringify(fitted) !== JSON.stringify(form)) updateForm(fitted);
  }, [form, service, limits, draft?.submittedAt, updateForm]);

  const violations = useMemo(
    () => (form && limits ? validateDraft(toVideoDraft(form), limits) : []),
    [form, limits],
  );
  const submitted = draft?.submittedAt !== null && draft !== null;
  // while New draft opens another, the form shown is the one being left: it takes no edit
  const opening = useStudio((s) => s.draftOpening);
  const locked = submitted || opening;
  return {
    draft,
    form,
    service,
    limits,
    violations,
    submitted,
    locked,
    disabled: locked || !service?.available,
  };
}
