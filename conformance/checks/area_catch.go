package checks

// catchAreas declares the checks of rule classes that realistic bugs
// slipped through while only single cases were judged: each is a property
// over every answer of its kind (every settings leaf, every string that
// reached the client, every emitted id, every page).
func (s *Suite) catchAreas() {
	s.settingsLeafChecks()
	s.successTextChecks()
	s.returnedKeyChecks()
	s.provenanceChecks()
	s.idHygieneChecks()
	s.pagingTruthChecks()
	s.writeOutcomeChecks()
	s.roleChecks()
	s.optInChecks()
	s.answerTruthChecks()
	s.artworkResourceChecks()
	s.issueAssociationChecks()
	s.guardIDChecks()
	s.serverInfoChecks()
	s.referenceResourceChecks()
	s.templateKeyChecks()
	s.mutationTargetChecks()
	s.voteMediaChecks()
	s.recentPartialChecks()
	s.operatorSecondChecks()
	s.operatorSecondCallChecks()
	s.projectionOpenChecks()
	s.unsavedTesterPartChecks()
	s.httpSettingChecks()
	s.logCutChecks()
	s.startupEnvironmentChecks()
}
