import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStudio } from '../../store';

const NEW = '__new__';

/** The project the open draft is filed under: choose one, none, or create one by name. */
export function ProjectPicker({ draftId, disabled }: { draftId: string; disabled: boolean }) {
  const { t } = useTranslation();
  const projects = useStudio((s) => s.projects);
  const projectId = useStudio((s) => s.draftProjectId);
  const error = useStudio((s) => s.projectsError);
  const loadProjects = useStudio((s) => s.loadProjects);
  const chooseProject = useStudio((s) => s.chooseProject);
  const createProject = useStudio((s) => s.createProject);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');

  useEffect(() => {
    void loadProjects(draftId);
  }, [draftId, loadProjects]);

  return (
    <div className="field project-picker">
      <label className="field-label" htmlFor="project-picker">
        {t('projects.label')}
      </label>
      <select
        id="project-picker"
        className="input"
        data-testid="project-picker"
        disabled={disabled}
        value={naming ? NEW : (projectId ?? '')}
        onChange={(event) => {
          const value = event.target.value;
          if (value === NEW) setNaming(true);
          else {
            setNaming(false);
            void chooseProject(draftId, value === '' ? null : value);
          }
        }}
      >
        <option value="">{t('projects.none')}</option>
        {projects.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
        <option value={NEW}>{t('projects.new')}</option>
      </select>
      {naming ? (
        <form
          className="row"
          onSubmit={(event) => {
            event.preventDefault();
            void createProject(draftId, name).then((created) => {
              if (created) {
                setNaming(false);
                setName('');
              }
            });
          }}
        >
          <input
            aria-label={t('projects.name')}
            placeholder={t('projects.name')}
            maxLength={120}
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
          <button type="submit" className="button">
            {t('projects.create')}
          </button>
        </form>
      ) : null}
      {error ? (
        <p role="alert" className="error-banner">
          {t('errors.generic', { message: error })}
        </p>
      ) : null}
    </div>
  );
}
