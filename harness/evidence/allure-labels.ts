/** The Allure label that names a result's case (harness/case.ts caseId), so the run can revise its verdict. */
export const CASE_LABEL = 'dbsiCase';
