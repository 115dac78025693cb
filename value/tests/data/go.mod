module smd-value-goldens

go 1.23

require (
	github.com/json-iterator/go v1.1.12
	sigs.k8s.io/structured-merge-diff/v6 v6.4.2
)
