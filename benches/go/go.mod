module smd.invalid/benches/go

go 1.23

require (
	go.yaml.in/yaml/v2 v2.4.2
	sigs.k8s.io/structured-merge-diff/v6 v6.4.2
)

require (
	github.com/json-iterator/go v1.1.12 // indirect
	github.com/modern-go/concurrent v0.0.0-20180306012644-bacd9c7ef1dd // indirect
	github.com/modern-go/reflect2 v1.0.2 // indirect
)
