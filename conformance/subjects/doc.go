// Package subjects holds Ombi MCP servers of other designs and languages
// with planted bugs (nodeombi, pyombi); its tests judge them in the any
// profile of the suite.
package subjects
